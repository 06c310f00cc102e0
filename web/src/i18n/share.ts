// Strings of the share button and share links (web/src/share/*).
import { register } from './index';

register('share', {
  en: {
    'share.button': 'Share',
    'share.title': 'Share this simulation',
    'share.link': 'Link (scenario, seed, your actions and this step)',
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
    'share.unsupported': 'This browser cannot compress share links (CompressionStream is missing).',
  },
});
