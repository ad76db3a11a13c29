// The errors room: the tool's one error type with a code (bench-error.ts). Stands on nothing; every room may throw it.
export { BenchError, type BenchErrorCode, errorCodeOf, errorMessageOf } from './bench-error.ts';
