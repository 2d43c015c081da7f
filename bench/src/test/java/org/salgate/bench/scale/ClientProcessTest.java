package org.salgate.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ClientProcessTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    /**
     * A stand-in for a client process that is still connecting: it says it is getting on every
     * 0.4 s, four times, then reports its clients connected, 1.6 s after it started.
     */
    private static ClientProcess slowButGettingOn() throws IOException {
        ProcessReport connected = new ProcessReport(0, ProcessReport.CONNECTED, 5, 5, 0, null, 1600, 0, 0, null, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, List.of());
        String report = ProcessReport.LINE_PREFIX + new ObjectMapper().writeValueAsString(connected);
        StringBuilder script = new StringBuilder();
        for (int i = 1; i <= 4; i++) {
            script.append("sleep 0.4; echo '").append(ProcessReport.PROGRESS_PREFIX).append(i).append("'; ");
        }
        script.append("echo '").append(report).append("'; cat > /dev/null");
        return new ClientProcess(0, new ProcessBuilder("sh", "-c", script.toString()).start());
    }

    @Test
    void aProcessThatKeepsSayingItIsGettingOnIsWaitedForPastTheDeadline() throws Exception {
        try (ClientProcess p = slowButGettingOn()) {
            long t0 = System.nanoTime();
            ProcessReport r = p.await(ProcessReport.CONNECTED, t0 + SECOND / 2, 2 * SECOND);
            assertEquals(5, r.connected());
            assertTrue(System.nanoTime() - t0 > SECOND, "the report came after the deadline it was waited past");
        }
    }

    @Test
    void withoutAStallAllowanceTheDeadlineHoldsWhateverTheProcessSays() throws Exception {
        try (ClientProcess p = slowButGettingOn()) {
            IOException e = assertThrows(IOException.class,
                    () -> p.await(ProcessReport.CONNECTED, System.nanoTime() + SECOND / 2, 0));
            assertTrue(e.getMessage().contains("did not report 'connected' in time"), e.getMessage());
        }
    }

    @Test
    void aProcessSilentForLongerThanTheStallAllowanceFails() throws Exception {
        ProcessReport connected = new ProcessReport(0, ProcessReport.CONNECTED, 5, 5, 0, null, 3000, 0, 0, null, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, List.of());
        String script = "echo '" + ProcessReport.PROGRESS_PREFIX + "1'; sleep 3; echo '" + ProcessReport.LINE_PREFIX
                + new ObjectMapper().writeValueAsString(connected) + "'; cat > /dev/null";
        try (ClientProcess p = new ClientProcess(0, new ProcessBuilder("sh", "-c", script).start())) {
            IOException e = assertThrows(IOException.class,
                    () -> p.await(ProcessReport.CONNECTED, System.nanoTime() + SECOND / 2, SECOND));
            assertTrue(e.getMessage().contains("it had said it was getting on"), e.getMessage());
        }
    }
}
