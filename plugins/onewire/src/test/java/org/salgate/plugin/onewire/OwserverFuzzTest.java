package org.salgate.plugin.onewire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Fuzzes the decoder of owserver's replies with what a hostile or broken owserver may send: any
 * bytes must end in replies or an {@link IOException} (a protocol error, the stream's end, pings
 * past the deadline); nothing else may escape, hang or allocate more than the payload bound, and
 * every reply's data and directory must decode or be refused the same way, and every device a
 * directory lists be a channel the driver reads or be left out. Without
 * {@code JAZZER_FUZZ} it replays the inputs under {@code OwserverFuzzTestInputs}.
 */
class OwserverFuzzTest {

    /** A small bound, so that the fuzzer also reaches payloads above it. */
    private static final int MAX_PAYLOAD = 4096;

    @FuzzTest(maxDuration = "30s")
    void anyReply(byte[] input) {
        ByteArrayInputStream in = new ByteArrayInputStream(input);
        long deadline = System.nanoTime() + 1_000_000_000L;
        try {
            while (true) {
                Owserver.Reply r = Owserver.readReply(in, MAX_PAYLOAD, deadline);
                if (r.payload().length > MAX_PAYLOAD) {
                    throw new AssertionError("a payload of " + r.payload().length + " bytes passed the bound");
                }
                for (String path : Owserver.list(r.payload())) {
                    // a listed device of a known family is a channel the driver reads
                    OnewireFamily.channel(path).ifPresent(c -> OnewireChannel.of(c, false));
                }
                byte[] data;
                try {
                    data = r.data();
                } catch (Owserver.ProtocolException e) {
                    continue; // a size the payload does not hold: refused
                }
                for (OnewireChannel.Kind kind : OnewireChannel.Kind.values()) {
                    try {
                        kind.value(data);
                    } catch (NumberFormatException e) {
                        // not a number of this kind: the channel reads ERROR, saying so
                    }
                }
            }
        } catch (IOException e) {
            // the connection is closed
        }
    }
}
