// The sessionStorage key of a presentation kept across a reload. It lives
// apart from the presenter so that the first load can look for a saved
// presentation without loading presenter mode (a lazy chunk).
export const PRESENT_STATE = 'rolloutlab-present';

/** Whether the page should come up in presenter mode: a presentation kept across a reload, or ?present in the URL. */
export function wantsPresenter(): boolean {
  return sessionStorage.getItem(PRESENT_STATE) !== null || new URLSearchParams(location.search).has('present');
}
