export const serverEntryOut: string;
export function buildServer(): Promise<void>;
export function serverBuildOptions(opts?: { main?: string; outdir?: string }): import('esbuild').BuildOptions;
