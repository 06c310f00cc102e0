// The /embed page: one player filling an iframe, options in the query string
// (/embed?scenario=rollback&panels=cluster,math&step=12&autoplay=1).
import { mountPlayer } from './mount';
import { parseOptions, queryOptions } from './options';

const host = document.getElementById('player');
if (host) {
  // Options in the query; the scenario's text (source) in the fragment,
  // or in the query as older links have it.
  const query = queryOptions(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const player = mountPlayer(host, parseOptions((name) => (name === 'source' ? fragment.get('source') : null) ?? query(name)), true);
  (window as unknown as { __rolloutlabPlayer: unknown }).__rolloutlabPlayer = player;
}
