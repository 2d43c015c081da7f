package org.salgate.bench.run;

/** Names of the metrics a cell records (the CSV's {@code metric} column). */
public final class Metrics {

    public static final String CALLS = "calls";
    public static final String ERRORS = "errors";
    public static final String CALLS_PER_S = "calls_per_s";
    public static final String MEAN_US = "mean_us";
    public static final String P50_US = "p50_us";
    public static final String P90_US = "p90_us";
    public static final String P99_US = "p99_us";
    public static final String P999_US = "p999_us";
    public static final String MAX_US = "max_us";
    /** Open loop only: the same percentiles from each call's actual send, without the queueing delay. */
    public static final String SERVICE_P99_US = "service_p99_us";
    public static final String MESSAGES = "messages";
    public static final String MSGS_PER_S = "msgs_per_s";
    public static final String MB_PER_S = "mb_per_s";
    public static final String LOST = "lost";
    public static final String DUPLICATED = "duplicated";
    public static final String REORDERED = "reordered";
    /** Server CPU, mean over the samples; 100 % is one core. */
    public static final String CPU_PCT = "cpu_pct";
    /** Server resident memory, mean over the samples, in MB (10^6 B). */
    public static final String RSS_MB = "rss_mb";
    public static final String RSS_MAX_MB = "rss_max_mb";
    public static final String SAMPLES = "samples";
    public static final String SECONDS = "seconds";

    private Metrics() {}
}
