import io.netty.buffer.*;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.*;
import java.util.function.Function;

// How long Netty's WebSocket encoder takes to mask one client frame of N bytes (RFC 6455 has a client mask
// every frame), by the buffer the content comes in: a wrapped byte[] (as the HTTP transport sends it), a
// pooled direct copy, a pooled heap copy. 8 rounds of 200,000 frames each, in turns; mean ns per frame.
//   java -cp bench/target/bench.jar docs/bench/2026-11-27-http-masking/MaskTrial.java 3408
public class MaskTrial {
    public static void main(String[] a) {
        byte[] payload = new byte[Integer.parseInt(a[0])];
        new java.util.Random(1).nextBytes(payload);
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocket08FrameEncoder(true));
        Function<byte[], ByteBuf> wrapped = Unpooled::wrappedBuffer;
        Function<byte[], ByteBuf> direct = b -> ch.alloc().directBuffer(b.length).writeBytes(b);
        Function<byte[], ByteBuf> heap = b -> ch.alloc().heapBuffer(b.length).writeBytes(b);
        String[] names = {"wrapped", "direct", "heap"};
        @SuppressWarnings("unchecked") Function<byte[], ByteBuf>[] fs = new Function[] {wrapped, direct, heap};
        for (int round = 0; round < 8; round++) {
            StringBuilder sb = new StringBuilder("round " + round);
            for (int k = 0; k < 3; k++) {
                int n = 200_000;
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    ch.writeOutbound(new BinaryWebSocketFrame(fs[k].apply(payload)));
                    Object o;
                    while ((o = ch.readOutbound()) != null) ((ByteBuf) o).release();
                }
                sb.append(String.format(" %s %.0f ns", names[k], (System.nanoTime() - t0) / (double) n));
            }
            System.out.println(sb);
        }
    }
}
