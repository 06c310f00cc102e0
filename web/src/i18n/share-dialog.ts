// Strings of the share dialog and of opening a share link (web/src/share/
// dialog.ts, restore.ts): lazy chunks that import this file, so these stay
// out of the first load (the button's label is in ./share.ts).
import { register } from './index';

register('shareDialog', {
  en: {
    'share.title': 'Share this simulation',
    'share.link': 'Link (scenario, seed, your actions and this step)',
    'share.linkWithComparison': 'Link (scenario, seed, your actions, this step and the What if? comparison)',
    'share.shortLink': 'Short link',
    'share.copy': 'Copy',
    'share.copied': 'Copied.',
    'share.close': 'Close',
    'share.making': 'Making the link…',
    'share.shortFailed': 'No short link: {message}',
    'share.tooLong': 'This link is long ({length} characters); some chat apps cut long links.',
    'share.corrupt': 'This share link is damaged and cannot be opened ({reason}). The default scenario is shown instead.',
    'share.newer': 'This share link was made by a newer version of Rollout Lab (format {version}); reload the page or update it. The default scenario is shown instead.',
    'share.restoreFailed': 'The shared simulation could not be restored completely: {message}',
    'share.fetchFailed': 'The shared scenario {id} could not be fetched: {message}',
    'share.restored': 'Opened a shared simulation at step {step}.',
    'share.restoredWithComparison': 'Opened a shared simulation at step {step}, with its What if? comparison.',
    'share.unsupported': 'This browser cannot compress share links (CompressionStream is missing).',
  },
});
