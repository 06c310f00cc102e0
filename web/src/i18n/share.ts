// The share button's label (in the first load); what the share dialog and
// an opened share link say is in ./share-dialog.ts, loaded with them.
import { register } from './index';

register('share', {
  en: {
    'share.button': 'Share',
  },
});
