/** Words the pipeline's reports share (compute-cost's and compute-drift's): a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
