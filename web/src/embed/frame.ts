// The /embed page: one player filling an iframe, options in the query string
// (/embed?scenario=rollback&panels=cluster,math&step=12&autoplay=1).
import { mountPlayer } from './mount';
import { parseOptions, queryOptions } from './options';

const host = document.getElementById('player');
if (host) {
  const player = mountPlayer(host, parseOptions(queryOptions(location.search)), true);
  (window as unknown as { __rolloutlabPlayer: unknown }).__rolloutlabPlayer = player;
}
