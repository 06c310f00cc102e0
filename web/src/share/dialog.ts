// The share dialog: the link to this simulation (scenario, seed, actions,
// step and language in the fragment) and, when the app is served by the
// Worker, a short link /s/{id} from its share API. Loaded on the first click
// of the Share button (button.ts), so it costs nothing on the first load.
import '../i18n/share-dialog';
import { h, setText } from '../dom';
import { getLocale, onLocaleChange, t } from '../i18n';
import { encodeShare } from './codec';
import type { ShareRecorder } from './recorder';
import './share.css';

/** Links longer than this get a warning (some chat apps cut them). */
const LONG_LINK = 8000;

/** Whether the share API answers here (the Worker does; `rolloutlab serve` does not). */
let apiAvailable: Promise<boolean> | null = null;
function shareAPI(): Promise<boolean> {
  apiAvailable ??= fetch('/api/health')
    .then(async (r) => r.ok && (await r.json()).ok === true)
    .catch(() => false);
  return apiAvailable;
}

/** Stores the scenario with the share API; returns its id. */
async function storeScenario(source: string): Promise<string> {
  const r = await fetch('/api/scenarios', { method: 'POST', body: source, headers: { 'Content-Type': 'text/yaml' } });
  const body = (await r.json().catch(() => ({}))) as { id?: string; error?: string };
  if (!r.ok || !body.id) throw new Error(body.error ?? `HTTP ${r.status}`);
  return body.id;
}

/** Creates the dialog (once) and returns the function that fills and opens it. */
export function createShareDialog(recorder: ShareRecorder): () => Promise<void> {
  const link = h('input', { id: 'share-link', readonly: true, 'aria-label': t('share.link'), spellcheck: 'false' });
  const short = h('input', { id: 'share-short', readonly: true, 'aria-label': t('share.shortLink'), spellcheck: 'false' });
  const status = h('p', { id: 'share-status', class: 'muted', role: 'status', 'aria-live': 'polite' });
  const copy = (input: HTMLInputElement) => {
    const b = h('button', { type: 'button', class: 'share-copy', text: t('share.copy') });
    b.addEventListener('click', () => {
      void navigator.clipboard?.writeText(input.value).then(
        () => setText(status, t('share.copied')),
        () => input.select(),
      );
    });
    return b;
  };
  const linkLabel = h('span', { text: t('share.link') });
  const shortLabel = h('span', { text: t('share.shortLink') });
  const shortRow = h('label', { class: 'share-row', hidden: true }, shortLabel, h('span', { class: 'share-field' }, short, copy(short)));
  const title = h('h2', { id: 'share-heading', text: t('share.title') });
  const close = h('button', { type: 'submit', text: t('share.close') });
  const dialog = h(
    'dialog',
    { id: 'share-dialog', class: 'help share-dialog', 'aria-labelledby': 'share-heading' },
    title,
    h('label', { class: 'share-row' }, linkLabel, h('span', { class: 'share-field' }, link, copy(link))),
    shortRow,
    status,
    h('form', { method: 'dialog' }, close),
  );
  onLocaleChange(() => {
    setText(title, t('share.title'));
    setText(linkLabel, t(linkLabelKey));
    setText(shortLabel, t('share.shortLink'));
    setText(close, t('share.close'));
  });

  /** The link's label names the What if? comparison when the link carries one. */
  let linkLabelKey = 'share.link';
  async function open(): Promise<void> {
    const state = recorder.state(getLocale());
    if (!state) return;
    linkLabelKey = state.forks ? 'share.linkWithComparison' : 'share.link';
    setText(linkLabel, t(linkLabelKey));
    link.setAttribute('aria-label', t(linkLabelKey));
    if (typeof CompressionStream === 'undefined') {
      setText(status, t('share.unsupported'));
      dialog.showModal();
      return;
    }
    setText(status, t('share.making'));
    link.value = '';
    shortRow.hidden = true;
    dialog.showModal();
    const base = `${location.origin}${location.pathname}`;
    link.value = `${base}${await encodeShare(state)}`;
    setText(status, link.value.length > LONG_LINK ? t('share.tooLong', { length: link.value.length }) : '');
    link.select();
    if (!(await shareAPI()) || state.source === undefined) return;
    try {
      const id = await storeScenario(state.source);
      const { source: _omit, ...rest } = state;
      const extra = rest.actions.length || rest.step || rest.lang !== 'en' || rest.forks ? await encodeShare({ ...rest, id }) : '';
      short.value = `${location.origin}/s/${id}${extra}`;
      shortRow.hidden = false;
    } catch (e) {
      setText(status, t('share.shortFailed', { message: (e as Error).message }));
    }
  }
  document.body.append(dialog);
  return open;
}
