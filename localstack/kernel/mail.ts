/** A message the local mailbox holds (courier/mailbox.ts), as `/local/mail` lists it. */
export interface MailboxEntry {
  /** The courier message's id for mail the courier delivered, else the mailbox's own. */
  id: string;
  /** The tenant of a courier message (a project's id, or the console's), null for mail from anyone else. */
  nid: string | null;
  type: 'email' | 'phone';
  sender: string;
  recipient: string;
  subject: string;
  body: string;
  html: string | null;
  template_type: string | null;
  created_at: Date;
}
