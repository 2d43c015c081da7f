package org.salgate.bench.codec.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPOutputStream;

/**
 * Times one codec on one value, in the manner of JMH's average-time mode: a round trip check, a
 * warm-up, then rounds of back-to-back encodes and of back-to-back decodes on the calling thread.
 * Each operation's result feeds a blackhole (a field published when the case ends), so the JIT
 * cannot drop the work. The clock is read once per batch of about {@value #TARGET_BATCH_NANOS} ns.
 */
public final class CodecHarness {

    private static final long TARGET_BATCH_NANOS = 1_000_000; // 1 ms of work between clock reads
    private static final long MAX_BATCH = 1 << 20;

    /** Where each case's blackhole ends up, so that its work is observable. */
    private static volatile long published;

    private final HarnessConfig config;
    private final AllocationMeter allocation = AllocationMeter.create();
    private long sink;
    private Object lastDecoded;

    public CodecHarness(HarnessConfig config) {
        this.config = config;
    }

    /** Whether allocation per operation can be measured on this JVM. */
    public boolean allocationSupported() {
        return allocation.supported();
    }

    /** Measures {@code serializer} on {@code value}; a failure is in the result, never thrown. */
    public CaseResult run(String codec, String workload, Serializer serializer, Object value) {
        try {
            byte[] encoded = serializer.encode(value);
            Object back = serializer.decode(encoded);
            String error = value.equals(back) ? null
                    : "decode(encode(x)) is not equal to x: the codec does not give the value back";
            long gzip = gzipSize(encoded);
            long[] batches = warmUp(serializer, value, encoded);
            int n = config.rounds();
            double[] encNs = new double[n];
            double[] encAlloc = new double[n];
            double[] decNs = new double[n];
            double[] decAlloc = new double[n];
            for (int r = 0; r < n; r++) {
                measureEncode(serializer, value, batches[0], encNs, encAlloc, r);
                measureDecode(serializer, encoded, batches[1], decNs, decAlloc, r);
            }
            return new CaseResult(codec, workload, encoded.length, gzip, Spread.of(encNs), Spread.of(decNs),
                    allocation.supported() ? Spread.of(encAlloc).median() : CaseResult.NO_ALLOC,
                    allocation.supported() ? Spread.of(decAlloc).median() : CaseResult.NO_ALLOC, error);
        } catch (Exception | StackOverflowError e) {
            return CaseResult.failed(codec, workload, e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            published = sink + (lastDecoded == null ? 0 : 1);
            lastDecoded = null;
        }
    }

    /** Encodes and decodes alternately for the warm-up time; returns the batch sizes for encode and decode. */
    private long[] warmUp(Serializer s, Object value, byte[] encoded) throws Exception {
        long end = System.nanoTime() + config.warmup().toNanos();
        long encNanos = 0;
        long decNanos = 0;
        long ops = 0;
        do {
            long t0 = System.nanoTime();
            sink += s.encode(value).length;
            long t1 = System.nanoTime();
            lastDecoded = s.decode(encoded);
            long t2 = System.nanoTime();
            encNanos += t1 - t0;
            decNanos += t2 - t1;
            ops++;
        } while (System.nanoTime() < end);
        return new long[] {batch(encNanos, ops), batch(decNanos, ops)};
    }

    private static long batch(long nanos, long ops) {
        double perOp = Math.max(1.0, nanos / (double) ops);
        return Math.max(1, Math.min(MAX_BATCH, (long) (TARGET_BATCH_NANOS / perOp)));
    }

    private void measureEncode(Serializer s, Object value, long batch, double[] ns, double[] alloc, int round)
            throws Exception {
        long limit = config.measure().toNanos();
        long ops = 0;
        long a0 = allocation.current();
        long t0 = System.nanoTime();
        long elapsed;
        do {
            for (long i = 0; i < batch; i++) {
                sink += s.encode(value).length;
            }
            ops += batch;
            elapsed = System.nanoTime() - t0;
        } while (elapsed < limit);
        long a1 = allocation.current();
        ns[round] = elapsed / (double) ops;
        alloc[round] = (a1 - a0) / (double) ops;
    }

    private void measureDecode(Serializer s, byte[] encoded, long batch, double[] ns, double[] alloc, int round)
            throws Exception {
        long limit = config.measure().toNanos();
        long ops = 0;
        long a0 = allocation.current();
        long t0 = System.nanoTime();
        long elapsed;
        do {
            for (long i = 0; i < batch; i++) {
                lastDecoded = s.decode(encoded);
            }
            ops += batch;
            elapsed = System.nanoTime() - t0;
        } while (elapsed < limit);
        long a1 = allocation.current();
        ns[round] = elapsed / (double) ops;
        alloc[round] = (a1 - a0) / (double) ops;
    }

    /** The size of {@code bytes} after gzip at the default level. */
    static long gzipSize(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.size();
    }
}
