export declare const HEADLESS_SHELL: string;
export declare const FULL_CHROMIUM: string;
/** The browser the e2e run launches (scripts/chromium-path.mjs). */
export declare function chromiumPath(): string;
