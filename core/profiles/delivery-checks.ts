/**
 * What each delivery allows and requires of send.args, for parse.ts: the list placeholders
 * ({users}, {groups}, {excluded}) only with their delivery and only in send.args, and the
 * placeholder without which a delivery cannot reach whom it plans ({target} for target, {user}
 * for user, the list for a list delivery, {group} for groupExcept). Each problem names the field
 * and says what to write.
 */
import { LIST_PLACEHOLDER_OF, type DeliverKind, type HubCall, type PlaceholderName } from './profile.ts';
import { PROFILE_WORDS as W } from './words.ts';

type ListPlaceholder = (typeof LIST_PLACEHOLDER_OF)[keyof typeof LIST_PLACEHOLDER_OF];
const LISTS: readonly ListPlaceholder[] = Object.values(LIST_PLACEHOLDER_OF);
const DELIVERY_OF_LIST: Record<ListPlaceholder, DeliverKind> = { users: 'users', groups: 'groups', excluded: 'groupExcept' };

export function isListPlaceholder(name: string): name is ListPlaceholder {
  return (LISTS as readonly string[]).includes(name);
}

/** The list placeholders a call may hold: its delivery's, in send.args; all of them while the
 *  delivery is unknown (only that is reported then). */
export function listAllowed(deliver: DeliverKind | null, where: string): ListPlaceholder[] {
  if (deliver === null) return [...LISTS];
  const list = (LIST_PLACEHOLDER_OF as Partial<Record<DeliverKind, ListPlaceholder>>)[deliver];
  return list && where === 'send' ? [list] : [];
}

/** Why a list placeholder is refused where it is. */
export function listNotAllowed(name: ListPlaceholder, deliver: DeliverKind | null): string {
  return W.listNotHere({ name, delivery: DELIVERY_OF_LIST[name], deliver });
}

/** What the delivery needs in send.args and does not find there. */
export function deliveryPlaceholderProblems(deliver: DeliverKind, send: HubCall): string[] {
  const text = JSON.stringify(send.args);
  const has = (name: PlaceholderName) => text.includes(`{${name}}`);
  const problems: string[] = [];
  const need = (name: PlaceholderName, why: string, example: string) => {
    if (!has(name)) problems.push(W.deliveryNeeds({ deliver, name, why, example }));
  };
  switch (deliver) {
    case 'target':
      need('target', W.needTarget(), '["{target}", "{message}"]');
      break;
    case 'user':
      need('user', W.needUser(), '["{user}", "{message}"]');
      break;
    case 'users':
      need('users', W.needUsers(), '["{users}", "{message}"]');
      break;
    case 'groups':
      need('groups', W.needGroups(), '["{groups}", "{message}"]');
      break;
    case 'groupExcept':
      need('group', W.needGroup(), '["{group}", "{excluded}", "{message}"]');
      need('excluded', W.needExcluded(), '["{group}", "{excluded}", "{message}"]');
      break;
    default:
      break;
  }
  return problems;
}
