export const serverEntryOut: string;
export function buildServer(): Promise<void>;
