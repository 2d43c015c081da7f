package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.transport.tls.Certificates;
import org.salgate.transport.tls.TlsConfig;

/**
 * What either end of a TLS connection holds while a stream of large messages arrives: Netty's TLS
 * handler, which {@link NettyIo#addServerTls} puts first in the pipeline, appends every read to one buffer and
 * decrypts the whole records in it. Runs of reads as an event loop hands them over (16 reads of
 * 64 KB, then the end of the run) must leave that buffer about one record and one read in size, not
 * grown by reallocation.
 */
class TlsReadBufferTest {

    private static final int MESSAGE_BYTES = 80 * 1024;
    private static final int READ_BYTES = 64 * 1024;
    private static final int READS_PER_RUN = 16;
    private static final int MESSAGES = 200;
    /** The largest TLS record: 16 KB of data and the record's own header, padding and tag. */
    private static final int RECORD_BYTES = 16 * 1024 + 256;

    @Test
    void runsOfReadsOfLargeMessagesKeepTheClientsTlsBufferAboutARecordAndAReadInSize() {
        Connection connection = new Connection();
        assertReceivesWithinARecordAndARead(connection.agent, connection.client, connection.clientAllocator);
    }

    @Test
    void runsOfReadsOfLargeMessagesKeepTheAgentsTlsBufferAboutARecordAndAReadInSize() {
        Connection connection = new Connection();
        assertReceivesWithinARecordAndARead(connection.client, connection.agent, connection.agentAllocator);
    }

    /** Both ends of one TLS connection, handshake done, each on an allocator that counts what it holds. */
    private static final class Connection {
        final UnpooledByteBufAllocator agentAllocator = new UnpooledByteBufAllocator(false);
        final UnpooledByteBufAllocator clientAllocator = new UnpooledByteBufAllocator(false);
        final EmbeddedChannel agent = new EmbeddedChannel();
        final EmbeddedChannel client = new EmbeddedChannel();

        Connection() {
            Certificates.KeyAndChain identity = Certificates.selfSigned(List.of("localhost"), 1);
            agent.config().setAllocator(agentAllocator);
            agent.pipeline().addLast(new Received());
            NettyIo.addServerTls(agent, TlsConfig.server(identity));
            client.config().setAllocator(clientAllocator);
            client.pipeline().addLast(new Received());
            SslHandler tls = NettyIo.tls(TlsConfig.clientTrusting(identity.chain(), "the test's own certificate")
                    .clientEngine("localhost", 7000), 10_000);
            client.pipeline().addFirst(tls);
            handshake(client, agent);
            assertTrue(tls.handshakeFuture().isSuccess(), "handshake: " + tls.handshakeFuture().cause());
        }
    }

    private static void assertReceivesWithinARecordAndARead(EmbeddedChannel sender, EmbeddedChannel receiver,
            UnpooledByteBufAllocator allocator) {
        long largestHeld = ReadRuns.deliver(receiver, allocator, sending(sender, MESSAGES), READ_BYTES,
                READS_PER_RUN);

        Received received = receiver.pipeline().get(Received.class);
        assertEquals((long) MESSAGES * MESSAGE_BYTES, received.bytes, "every byte arrived");
        assertEquals(-1, received.firstWrongByte, "in order");
        assertTrue(receiver.isOpen(), "the connection stayed open");
        assertTrue(largestHeld <= 4L * (RECORD_BYTES + READ_BYTES),
                "the receiver held " + largestHeld + " bytes after a run of " + READS_PER_RUN + " reads of "
                        + READ_BYTES + " bytes; a run's worth is " + READS_PER_RUN * READ_BYTES);
        receiver.finishAndReleaseAll();
        sender.finishAndReleaseAll();
    }

    /** Passes each side's bytes to the other until neither has any left to send. */
    private static void handshake(EmbeddedChannel client, EmbeddedChannel agent) {
        for (int turn = 0; turn < 20; turn++) {
            boolean moved = pass(client, agent) | pass(agent, client);
            if (!moved) {
                return;
            }
        }
        throw new AssertionError("the handshake did not settle in 20 turns");
    }

    private static boolean pass(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        for (ByteBuf out; (out = from.readOutbound()) != null; ) {
            to.writeInbound(out);
            moved = true;
        }
        return moved;
    }

    /** The bytes on the wire: {@code messages} messages of {@link #MESSAGE_BYTES}, each byte its offset's low 8 bits. */
    private static byte[] sending(EmbeddedChannel sender, int messages) {
        long offset = 0;
        for (int m = 0; m < messages; m++) {
            byte[] message = new byte[MESSAGE_BYTES];
            for (int i = 0; i < message.length; i++) {
                message[i] = (byte) offset++;
            }
            sender.writeAndFlush(Unpooled.wrappedBuffer(message));
        }
        return ReadRuns.written(sender);
    }

    /** The decrypted bytes, counted, checked against their offset, and released. */
    private static final class Received extends ChannelInboundHandlerAdapter {
        long bytes;
        long firstWrongByte = -1;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf data = (ByteBuf) msg;
            try {
                while (data.isReadable()) {
                    if (data.readByte() != (byte) bytes && firstWrongByte < 0) {
                        firstWrongByte = bytes;
                    }
                    bytes++;
                }
            } finally {
                data.release();
            }
        }
    }
}
