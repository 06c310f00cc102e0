// The header's Share button. The dialog (and the link codec) load on the
// first click (dialog.ts), so the button costs the first load almost nothing.
import '../i18n/share';
import { h, setText } from '../dom';
import { onLocaleChange, t } from '../i18n';
import type { ShareRecorder } from './recorder';

export function mountShareButton(container: Element, recorder: ShareRecorder): HTMLButtonElement {
  const button = h('button', { type: 'button', id: 'share-btn', 'aria-haspopup': 'dialog', text: t('share.button') });
  onLocaleChange(() => setText(button, t('share.button')));
  let open: Promise<() => Promise<void>> | null = null;
  button.addEventListener('click', () => {
    open ??= import('./dialog').then((m) => m.createShareDialog(recorder));
    void open.then((fn) => fn());
  });
  container.append(button);
  return button;
}
