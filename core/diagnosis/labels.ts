/**
 * A few words per cause, for where a whole sentence does not fit: a history row beside its
 * verdict, a comparison's row. A set-up cause says so first ("set-up: token refused"), so the
 * side reads without a colour. The sentences are in words.ts. Pure.
 */
import type { CauseId } from './causes.ts';

export const CAUSE_LABELS: Record<CauseId, string> = {
  held: 'held',
  incomplete: 'ended early',
  plannedDrop: 'planned drop',
  load: 'service at its load',
  clientLimit: 'client at its limit',
  bothLimits: 'both sides at their limit',
  hubCrashed: 'hub crashed',
  hubStalled: 'hub stalled',
  backplaneDown: 'backplane down',
  serviceRefused: 'service refused connects',
  restFailed: 'service failed REST sends',
  unreachable: 'set-up: hub unreachable',
  tlsUntrusted: 'set-up: certificate not trusted',
  authRefused: 'set-up: token refused',
  headersTooLarge: 'set-up: headers too large',
  corsBlocked: 'set-up: CORS blocked',
  notAHub: 'set-up: no hub at the URL',
  negotiationNeeded: 'set-up: negotiation needed',
  proxyNoUpgrade: 'set-up: proxy blocks WebSockets',
  noStickySessions: 'set-up: no sticky sessions',
  hubMethodRefused: 'set-up: hub method refused',
  restRefused: 'set-up: REST API refused',
  profileMismatch: 'set-up: profile does not match the hub',
  textNotFound: 'set-up: text not where the profile reads',
  messageTooLarge: 'set-up: message too large',
  sameInstance: 'set-up: instance listed twice',
  unknown: 'cause unknown',
};
