package org.salgate.bench.matrix;

/**
 * One measured repetition of one cell.
 *
 * @param transport the transport's name
 * @param codec the payload format's name
 * @param rep the repetition, from 1
 * @param millis wall time of the measured echoes; NaN when the repetition failed
 * @param bytesPerCall mean request envelope bytes per call (the answer has the same format); NaN when failed
 * @param serverCpuPercent the server's CPU over the measured echoes, 100 = one core; NaN when unknown
 * @param error why the repetition failed, or null
 */
public record CellRun(String transport, String codec, int rep, double millis, double bytesPerCall,
                      double serverCpuPercent, String error) {

    /** A repetition that failed before or while measuring. */
    public static CellRun failed(String transport, String codec, int rep, String error) {
        return new CellRun(transport, codec, rep, Double.NaN, Double.NaN, Double.NaN, error);
    }

    public boolean ok() {
        return error == null;
    }
}
