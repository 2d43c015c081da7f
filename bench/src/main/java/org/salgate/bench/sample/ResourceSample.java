package org.salgate.bench.sample;

/**
 * One sample of a process.
 *
 * @param elapsedMillis since the sampler started
 * @param cpuPercent CPU used since the previous sample over the wall time between them; 100 % is one core fully busy
 * @param rssBytes resident memory (VmRSS)
 * @param threads the process's threads (/proc Threads); 0 when not read
 */
public record ResourceSample(long elapsedMillis, double cpuPercent, long rssBytes, int threads) {

    /** A sample without a thread count. */
    public ResourceSample(long elapsedMillis, double cpuPercent, long rssBytes) {
        this(elapsedMillis, cpuPercent, rssBytes, 0);
    }
}
