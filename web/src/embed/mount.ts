// Mounts a Player into a host element's shadow root. Every player on a page
// shares the one compiled engine module (engine.ts compileEngine) and runs
// its own engine Worker.
import '../i18n/embed';
import { compileEngine, startEngine } from '../engine';
import { parseLocale, setLocale } from '../i18n';
// The embedded player renders once, in its page's language: it carries both
// languages (the app loads zh-CN lazily, see i18n/index.ts).
import '../i18n/zh-CN/all';
import { encodeShare } from '../share/codec';
import appCSS from '../style.css?inline';
import { type EmbedOptions, pageTheme, themeHost } from './options';
import { Player } from './player';
import playerCSS from './player.css?inline';

let sheet: CSSStyleSheet | null = null;

/** One constructable stylesheet for every player (not subject to the host's style-src CSP). */
function styles(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    // The app's variables are declared on :root; inside a shadow root that is :host.
    // A forced theme is an attribute of the host (data-rl-theme, set by
    // mountPlayer from the theme option or the page's colours); the
    // minifier may have dropped the selector's quotes.
    sheet.replaceSync(`${appCSS.replaceAll(':root', ':host').replace(/:host\[data-theme=(['"]?)(\w+)\1\]/g, ":host([data-rl-theme=$2])")}\n${playerCSS}`);
  }
  return sheet;
}

/** The app's origin: where this code was loaded from. */
const appBase = new URL(/* @vite-ignore */ '/', import.meta.url);

/**
 * Mounts a player in host. ownPage is set on the /embed page, whose
 * document is the player's own: it takes the player's language as its lang.
 */
export function mountPlayer(host: HTMLElement, opts: EmbedOptions, ownPage = false): Player {
  // The player's own lang, else the nearest around it on the page. One
  // language per page: players of the same origin share their strings.
  const lang = parseLocale(opts.lang ?? host.closest<HTMLElement>('[lang]')?.lang ?? document.documentElement.lang);
  if (lang) setLocale(lang, ownPage);
  if (ownPage) {
    // The /embed page: the theme asked for (the page around the iframe
    // passed its own), and the switches that page sends later.
    const apply = (th: 'light' | 'dark' | null) => {
      themeHost(host, th);
      document.documentElement.style.colorScheme = th ?? '';
    };
    apply(opts.theme);
    window.addEventListener('message', (e: MessageEvent<{ type?: unknown; theme?: unknown }>) => {
      if (e.source !== window.parent || e.data?.type !== 'rollout-lab-theme') return;
      const th = e.data.theme;
      apply(th === 'light' || th === 'dark' ? th : null);
    });
  } else themeHost(host, opts.theme ?? pageTheme(host));
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.adoptedStyleSheets = [styles()];
  const module = compileEngine({ wasmURL: new URL(__WASM_URL__, import.meta.url).href, buildBytes: __WASM_BYTES__ });
  const player = new Player(startEngine(module), opts, async (source, step, name) => {
    const hash = await encodeShare({ source, name, actions: [], step, ...(lang ? { lang } : {}) });
    return new URL(hash, appBase).href;
  });
  // A player that cannot start says so to the page (docs CI can catch a
  // broken player): an error event on the element, and the console; an
  // iframe's own page tells the page around it (script.ts).
  player.onFail = (message) => {
    if (ownPage && window.parent !== window) {
      // The page around the iframe chose what it shows, and learns why it
      // failed; it may be on any site.
      window.parent.postMessage({ type: 'rollout-lab-error', message }, '*');
      return;
    }
    console.error(`Rollout Lab player${host.id ? ` #${host.id}` : ''}: ${message}`);
    host.dispatchEvent(new CustomEvent('rollout-lab-error', { detail: { message }, bubbles: true }));
  };
  shadow.replaceChildren(player.root);
  void player.start();
  return player;
}
