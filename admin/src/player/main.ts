import { startLive } from './live';
import { showMessage } from './message';
import { startPreview } from './preview';
import './player.css';

/**
 * The totem player (player.html, served by api/routes/playerPages.ts):
 *   /play/{code}                                        plays the code's group (live.ts)
 *   /play/_preview/{accountId}/{carouselId}?slide=&variant=   the editor's still preview of one slide (preview.ts)
 * ?variant=<v_name> picks a variant instead of the best fit for the window; ?poll=<seconds> how often the manifest is
 * checked (60 by default); ?report=<seconds> how often events are sent (30 by default, or at 50 waiting).
 */
const stage = document.getElementById('stage')!;
const params = new URLSearchParams(location.search);
const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);

/** A number of seconds from the address (1…3600), else the default. */
function seconds(name: string, fallback: number): number {
  const value = Number(params.get(name));
  return (params.has(name) && Number.isFinite(value) && value >= 1 ? Math.min(value, 3600) : fallback) * 1000;
}

if (parts[0] === 'play' && parts[1] === '_preview' && parts.length === 4) {
  stage.classList.add('preview');
  startPreview({ stage, accountId: parts[2], carouselId: parts[3], slideId: params.get('slide'), variant: params.get('variant') });
} else if (parts[0] === 'play' && parts.length === 2 && parts[1] !== '_preview') {
  startLive({ stage, code: parts[1], pollMs: seconds('poll', 60), reportMs: seconds('report', 30), wantedVariant: params.get('variant') });
} else {
  showMessage('unknown_code');
}
