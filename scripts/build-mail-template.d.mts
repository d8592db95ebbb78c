export const layoutSource: string;
export const layoutOut: string;
export const markOut: string;
export function compileMailLayout(): Promise<string>;
export function generatedModule(html: string): Promise<string>;
