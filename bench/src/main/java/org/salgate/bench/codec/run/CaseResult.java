package org.salgate.bench.codec.run;

/**
 * What one codec did with one workload.
 *
 * @param codec the codec name
 * @param workload the workload name
 * @param bytes the encoded size
 * @param gzipBytes the encoded bytes gzip'd at the default level
 * @param encodeNs encode time per operation over the rounds, in nanoseconds
 * @param decodeNs decode time per operation over the rounds, in nanoseconds
 * @param encodeAllocBytes bytes allocated per encode (median of the rounds), or -1 if the JVM cannot say
 * @param decodeAllocBytes bytes allocated per decode (median of the rounds), or -1 if the JVM cannot say
 * @param error why the case failed (an exception, or a round trip that did not give the value back), or null
 */
public record CaseResult(String codec, String workload, long bytes, long gzipBytes, Spread encodeNs, Spread decodeNs,
        double encodeAllocBytes, double decodeAllocBytes, String error) {

    /** Allocation per operation is unknown. */
    public static final double NO_ALLOC = -1;

    /** A case that could not be measured at all. */
    public static CaseResult failed(String codec, String workload, String error) {
        Spread none = Spread.of(new double[0]);
        return new CaseResult(codec, workload, -1, -1, none, none, NO_ALLOC, NO_ALLOC, error);
    }

    public boolean ok() {
        return error == null;
    }
}
