package org.salgate.transport.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler.ClientHandshakeStateEvent;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ClientHandler;
import org.salgate.transport.netty.ReadRuns;
import org.salgate.wire.Codecs;
import org.salgate.wire.ConnectionCodec;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.model.Reading;
import org.salgate.wire.StreamData;
import org.salgate.model.Value;

/**
 * What a client connection holds while a stream of large messages arrives: Netty's WebSocket frame
 * decoder, which the handshake puts before the client's {@link WebSocketHandler}, appends every read to one
 * buffer until a message is whole. Runs of reads as an event loop hands them over (16 reads of
 * 64 KB, then the end of the run) must leave that buffer about one message and one read in size,
 * not grown by a whole run's bytes.
 */
class WebSocketClientReadBufferTest {

    private static final int MESSAGE_BYTES = 80 * 1024;
    private static final int READ_BYTES = 64 * 1024;
    private static final int READS_PER_RUN = 16;
    private static final int MESSAGES = 200;

    @Test
    void runsOfReadsOfLargeMessagesKeepTheDecodeBufferAboutAMessageAndAReadInSize() {
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false);
        List<Message> received = new ArrayList<>();
        List<Throwable> closes = new ArrayList<>();
        CompletableFuture<Void> handshake = new CompletableFuture<>();
        EmbeddedChannel client = new EmbeddedChannel();
        client.config().setAllocator(allocator);
        client.pipeline().addLast(
                new WebSocket13FrameDecoder(WebSocketDecoderConfig.newBuilder()
                        .expectMaskedFrames(false).maxFramePayloadLength(1 << 20).build()),
                new WebSocketHandler(HttpTransportClient.end(recordingInto(received, closes),
                        new ConnectionCodec(Codecs.defaultCodec()), handshake)));
        client.pipeline().fireUserEventTriggered(ClientHandshakeStateEvent.HANDSHAKE_COMPLETE);
        assertTrue(handshake.isDone());

        long largestHeld = ReadRuns.deliver(client, allocator, agentSending(MESSAGES), READ_BYTES, READS_PER_RUN);

        assertEquals(List.of(), closes, "the connection stayed open");
        assertEquals(MESSAGES + 1, received.size(), "every message arrived");
        for (int i = 1; i <= MESSAGES; i++) {
            StreamData data = assertInstanceOf(StreamData.class, received.get(i));
            assertEquals(i - 1, data.reading().sequence(), "in order");
        }
        assertNull(client.readInbound(), "nothing passed the client's handler");
        assertTrue(largestHeld <= 4L * (MESSAGE_BYTES + READ_BYTES),
                "the client held " + largestHeld + " bytes after a run of " + READS_PER_RUN + " reads of "
                        + READ_BYTES + " bytes; a run's worth is " + READS_PER_RUN * READ_BYTES);
        client.finishAndReleaseAll();
    }

    /** The bytes on the wire: the handshake's reply, then readings of {@link #MESSAGE_BYTES} each. */
    private static byte[] agentSending(int readings) {
        ConnectionCodec agent = new ConnectionCodec(Codecs.defaultCodec());
        EmbeddedChannel framer = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
        framer.writeOutbound(binary(agent.encode(HelloReply.accept("agent"))));
        for (int i = 0; i < readings; i++) {
            Reading reading = Reading.ok("CAMERA_0", i, i, Value.of(new byte[MESSAGE_BYTES]));
            framer.writeOutbound(binary(agent.encode(new StreamData(1, reading))));
        }
        return ReadRuns.written(framer);
    }

    private static BinaryWebSocketFrame binary(byte[] message) {
        return new BinaryWebSocketFrame(Unpooled.wrappedBuffer(message));
    }

    private static ClientHandler recordingInto(List<Message> received, List<Throwable> closes) {
        return new ClientHandler() {
            @Override
            public void messageReceived(Message message) {
                received.add(message);
            }

            @Override
            public void closed(Throwable cause) {
                closes.add(cause == null ? new IllegalStateException("closed without a cause") : cause);
            }
        };
    }
}
