// Whether the page was opened from a share link: a `#v<N>.` fragment (any
// version, so a newer one is reported) or `?s=<id>` from a short link. Small
// on purpose: web/src/main.ts loads restore.ts only when this is true.
export function hasShareLink(loc: Pick<Location, 'hash' | 'search'>): boolean {
  return /^#?v\d+\./.test(loc.hash) || /^[0-9a-f]{32}$/.test(new URLSearchParams(loc.search).get('s') ?? '');
}
