/** The element of a painted page's HTML that names the code to load once the page is on screen. */
export const CODE_AFTER_PAINT_ELEMENT_ID = 'code-after-paint';

/** What that element holds: the entry script and the modules to preload beside it. */
export interface CodeAfterPaint {
  entry: string;
  preloads: string[];
}

/**
 * Loads a page's code once the browser has painted what the server sent (server/static-client.ts): the
 * scripts and module preloads of the build, named in the element above, are added to the head after the
 * next frame, so fetching and compiling them does not hold back the first paint. A hidden tab paints no
 * frame: there it loads them at once; a frame that never comes (a throttled tab) is waited for 200 ms at
 * most. The server writes it inline at the end of a painted page and allows it by its hash in the
 * Content-Security-Policy (server/http-guards.ts), as the theme's.
 */
export const CODE_AFTER_PAINT_SCRIPT =
  `(function(){var d=document,done=false;function go(){if(done)return;done=true;` +
  `var c=JSON.parse(d.getElementById('${CODE_AFTER_PAINT_ELEMENT_ID}').textContent);` +
  `c.preloads.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;d.head.appendChild(l)});` +
  `var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=c.entry;d.head.appendChild(s)}` +
  `if(d.visibilityState==='hidden')go();else{requestAnimationFrame(function(){setTimeout(go)});setTimeout(go,200)}})()`;
