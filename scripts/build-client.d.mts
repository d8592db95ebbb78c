export function precompressClient(clientDir: string): void;
export function buildClient(clientDir: string): number;
export function ssrDirFor(clientDir: string): string;
