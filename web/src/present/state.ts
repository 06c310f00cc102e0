// The sessionStorage key of a presentation kept across a reload. It lives
// apart from the presenter so that the first load can look for a saved
// presentation without loading presenter mode (a lazy chunk).
export const PRESENT_STATE = 'rolloutlab-present';
