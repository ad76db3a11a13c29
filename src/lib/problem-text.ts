/**
 * What the page says of an action that failed, by the error's code (core/errors/), as the runner
 * maps the same codes to exit codes (cli/output.ts): the page never tells kinds apart by wording.
 * A coded error's message already says what is wrong and what to do; an error without a code is
 * the page's own failure (a bug, or the browser's storage), said as such: never the service's.
 */
import { BenchError, errorCodeOf, errorMessageOf, type BenchErrorCode } from '../../core/errors/index.ts';
import { PAGE_WORDS } from './words.ts';

/** What failed, for the import of a file: a file that is not a run was not read; anything else was not kept. */
const IMPORT_FAILED: Record<BenchErrorCode, string> = {
  parse: 'could not be imported',
  badInput: 'could not be imported',
  notFound: 'could not be imported',
  couldNotConnect: 'could not be kept',
  refused: 'could not be kept',
  internal: 'could not be kept',
};

export function problemText(error: unknown): string {
  const message = errorMessageOf(error);
  return errorCodeOf(error) === 'internal' ? PAGE_WORDS.pagesOwnFailure({ message: message.replace(/\.+$/, '') }) : message;
}

/** The import of `fileName` failed with `error`: the same code, the file named. */
export function importFailure(fileName: string, error: unknown): BenchError {
  const code = errorCodeOf(error);
  return new BenchError(code, `${fileName} ${IMPORT_FAILED[code]}: ${errorMessageOf(error)}`, { cause: error });
}
