/** Prometheus' text exposition format, read back just enough for tests to check figures. */
export interface ParsedMetrics {
  /** Metric family name → its `# TYPE` (counter, gauge, histogram…). */
  types: Map<string, string>;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): ParsedMetrics {
  const types = new Map<string, string>();
  const samples: ParsedMetrics['samples'] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(LABEL)) labels[key!] = value!;
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

/**
 * The sum of the samples of `name` whose labels include `labels` (every label given must match);
 * undefined when none does.
 */
export function sampleValue(
  parsed: ParsedMetrics,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = parsed.samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, s) => sum + s.value, 0);
}
