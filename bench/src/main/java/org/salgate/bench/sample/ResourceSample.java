package org.salgate.bench.sample;

/**
 * One sample of a process.
 *
 * @param elapsedMillis since the sampler started
 * @param cpuPercent CPU used since the previous sample over the wall time between them; 100 % is one core fully busy
 * @param rssBytes resident memory (VmRSS)
 */
public record ResourceSample(long elapsedMillis, double cpuPercent, long rssBytes) {}
