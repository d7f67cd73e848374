/** Where the browser keeps the user's theme choice ('light', 'dark' or 'system'). */
export const THEME_STORAGE_KEY = 'console-theme';

/**
 * Sets the theme on <html> before the page paints, as the client's initTheme (client/src/nav/theme.ts)
 * does once its code runs: a page the server painted shows before that code, and would otherwise flash in
 * the light theme for a user who chose dark. The server writes it inline in every page's head and allows it
 * by its hash in the Content-Security-Policy (server/http-guards.ts); the only other inline script is a painted
 * page's code loader (shared/code-after-paint.ts).
 */
export const THEME_BOOT_SCRIPT =
  `(function(){var p='system';try{p=localStorage.getItem('${THEME_STORAGE_KEY}')||p}catch(e){}` +
  `if(p!=='light'&&p!=='dark')p='system';` +
  `var t=p==='system'?(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'):p;` +
  `var r=document.documentElement;r.dataset.theme=t;r.dataset.themePreference=p;r.style.colorScheme=t})()`;
