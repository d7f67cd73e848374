import { useState } from 'react';
import toast from 'react-hot-toast';
import { errorText } from './errors';

/** Saves `text` as a file named `name` through the browser's download. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * An export button's action: `save(name, load, failure)` loads a document, saves it as indented JSON named
 * `name`, and says the server's reason (or `failure`) in a toast when it cannot; `busy` is true meanwhile.
 */
export function useJsonDownload(): { busy: boolean; save(name: string, load: () => Promise<unknown>, failure: string): Promise<void> } {
  const [busy, setBusy] = useState(false);
  const save = async (name: string, load: () => Promise<unknown>, failure: string) => {
    setBusy(true);
    try {
      download(name, `${JSON.stringify(await load(), null, 2)}\n`, 'application/json');
    } catch (error) {
      toast.error(errorText(error) ?? failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, save };
}
