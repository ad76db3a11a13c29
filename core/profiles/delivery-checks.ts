/**
 * What each delivery allows and requires of send.args, for parse.ts: the list placeholders
 * ({users}, {groups}, {excluded}) only with their delivery and only in send.args, and the
 * placeholder without which a delivery cannot reach whom it plans ({target} for target, {user}
 * for user, the list for a list delivery, {group} for groupExcept). Each problem names the field
 * and says what to write.
 */
import { LIST_PLACEHOLDER_OF, type DeliverKind, type HubCall, type PlaceholderName } from './profile.ts';

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
  const with_ = deliver ? ` (deliver is "${deliver}")` : '';
  return `{${name}} is only known in send.args with deliver "${DELIVERY_OF_LIST[name]}"${with_}: ${LIST_WORDS[name]}.`;
}

const LIST_WORDS: Record<ListPlaceholder, string> = {
  users: 'it lists the users a send reaches (the sender\'s and the next one\'s)',
  groups: 'it lists the groups a send reaches (the sender\'s and the next one)',
  excluded: 'it lists the connections a send to the group leaves out (the sender)',
};

/** What the delivery needs in send.args and does not find there. */
export function deliveryPlaceholderProblems(deliver: DeliverKind, send: HubCall): string[] {
  const text = JSON.stringify(send.args);
  const has = (name: PlaceholderName) => text.includes(`{${name}}`);
  const problems: string[] = [];
  const need = (name: PlaceholderName, why: string, example: string) => {
    if (!has(name)) problems.push(`send.args: deliver "${deliver}" needs {${name}}, but send.args has none: ${why}. Put "{${name}}" where the hub takes it, e.g. ${example}.`);
  };
  switch (deliver) {
    case 'target':
      need('target', 'without the target\'s connection id the hub cannot send to it, and a hub that answers the caller would pass for a send to another connection', '["{target}", "{message}"]');
      break;
    case 'user':
      need('user', 'the hub sends to the user it is given, the sender\'s own (named by its access token)', '["{user}", "{message}"]');
      break;
    case 'users':
      need('users', 'the hub sends to the users it is given, a list the run fills (the sender\'s user and the next one)', '["{users}", "{message}"]');
      break;
    case 'groups':
      need('groups', 'the hub sends to the groups it is given, a list the run fills (the sender\'s group and the next one)', '["{groups}", "{message}"]');
      break;
    case 'groupExcept':
      need('group', 'the hub sends to the group it is given, the sender\'s', '["{group}", "{excluded}", "{message}"]');
      need('excluded', 'the hub leaves out the connections it is given, a list the run fills (the sender\'s id)', '["{group}", "{excluded}", "{message}"]');
      break;
    default:
      break;
  }
  return problems;
}
