/** Types of scripts/test-groups.mjs, for vite.config.ts. */
export declare const LOAD_FILES: { integration: string[]; browser: string[] };
export declare const WORKERS: { parallel: number; browser: number; load: number };
export declare const GROUP_ORDER: { parallel: number; browser: number; load: number };
export declare const LONGEST_FIRST: string[];
export declare function projectOfFile(file: string): string;
