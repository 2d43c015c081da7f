package org.salgate.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ServerOptions;

/** How the Netty-based transports choose their I/O mechanism, and that each one serves. */
class NettyIoTest {

    /** A machine where the mechanisms in {@code missing} do not load, for the reasons given. */
    private static NettyIo.Probe without(Map<NettyIo.Kind, String> missing) {
        return kind -> missing.containsKey(kind) ? new UnsatisfiedLinkError(missing.get(kind)) : null;
    }

    @Test
    void theDefaultOnLinuxX8664IsNativeEpoll() {
        // this project's machines and CI are Linux x86_64, where both native jars load
        NettyIo io = NettyIo.current();
        assertEquals(NettyIo.Kind.EPOLL, io.kind(), io.describe());
        assertTrue(io.isNative());
        assertEquals("epoll (native)", io.describe());
        assertEquals(EpollServerSocketChannel.class, io.serverChannel());
        assertEquals(EpollSocketChannel.class, io.socketChannel());
    }

    @Test
    void eachMechanismAskedForByNameIsUsedWhenItLoads() {
        assertEquals(NettyIo.Kind.EPOLL, NettyIo.choose("epoll", NettyIo.NETTY).kind());
        NettyIo ioUring = NettyIo.choose("io_uring", NettyIo.NETTY);
        assertEquals(IoUringServerSocketChannel.class, ioUring.serverChannel());
        assertEquals(IoUringSocketChannel.class, ioUring.socketChannel());
        NettyIo nio = NettyIo.choose(" NIO ", NettyIo.NETTY);
        assertEquals(NioServerSocketChannel.class, nio.serverChannel());
        assertEquals(NioSocketChannel.class, nio.socketChannel());
        assertEquals("nio (salgate.netty.io=nio)", nio.describe());
    }

    @Test
    void autoTakesTheNextMechanismWhenOneDoesNotLoadAndSaysWhy() {
        NettyIo io = NettyIo.choose("auto", without(Map.of(NettyIo.Kind.EPOLL, "no libnetty_transport_native_epoll")));
        assertEquals(NettyIo.Kind.IO_URING, io.kind());
        assertEquals("io_uring (native; epoll unavailable: no libnetty_transport_native_epoll)", io.describe());
    }

    @Test
    void autoFallsBackToNioNamingWhyEachNativeMechanismDidNotLoad() {
        NettyIo io = NettyIo.choose(null, without(Map.of(NettyIo.Kind.EPOLL, "epoll: not Linux",
                NettyIo.Kind.IO_URING, "io_uring: not Linux")));
        assertEquals(NettyIo.Kind.NIO, io.kind());
        assertEquals("nio (epoll unavailable: epoll: not Linux; io_uring unavailable: io_uring: not Linux)",
                io.describe());
    }

    @Test
    void askingForAMechanismThatDoesNotLoadFailsNamingTheCause() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> NettyIo.choose("io_uring",
                without(Map.of(NettyIo.Kind.IO_URING, "io_uring_setup failed: Operation not permitted"))));
        assertEquals("salgate.netty.io=io_uring asks for Netty's io_uring transport, which does not load here:"
                + " io_uring_setup failed: Operation not permitted; set salgate.netty.io=auto (or leave it unset)"
                + " to use what loads", e.getMessage());
        assertInstanceOf(UnsatisfiedLinkError.class, e.getCause());
    }

    @Test
    void anUnknownMechanismIsRefusedListingTheChoices() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> NettyIo.choose("kqueue", NettyIo.NETTY));
        assertEquals("salgate.netty.io=kqueue is not an I/O mechanism; use one of auto, epoll, io_uring, nio",
                e.getMessage());
    }

    @Test
    @Timeout(30)
    void aServerOnEachMechanismAcceptsAndEchoesOverItsOwnChannelClass() throws Exception {
        for (NettyIo.Kind kind : NettyIo.Kind.values()) {
            NettyIo io = NettyIo.choose(kind.id(), NettyIo.NETTY);
            CompletableFuture<Class<?>> accepted = new CompletableFuture<>();
            ChannelServer server = ChannelServer.bind(io, ServerOptions.builder().build(), "test", ch -> {
                accepted.complete(ch.getClass());
                ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ctx.writeAndFlush(msg);
                    }
                });
            });
            try (Socket socket = new Socket()) {
                InetSocketAddress at = server.localAddress();
                socket.connect(new InetSocketAddress("127.0.0.1", at.getPort()), 5_000);
                socket.setSoTimeout(5_000);
                socket.getOutputStream().write(new byte[] {1, 2, 3});
                byte[] echoed = socket.getInputStream().readNBytes(3);
                assertEquals(3, echoed.length, kind.id());
                assertEquals(io.socketChannel(), accepted.get(5, TimeUnit.SECONDS), kind.id());
            } finally {
                server.close();
            }
        }
    }

    @Test
    void aPortInUseIsABindExceptionOnEveryMechanism() throws Exception {
        ChannelServer taken = ChannelServer.bind(NettyIo.nio(), ServerOptions.builder().build(), "taken", ch -> { });
        try {
            int port = taken.localAddress().getPort();
            for (NettyIo.Kind kind : NettyIo.Kind.values()) {
                IOException e = assertThrows(IOException.class, () -> ChannelServer.bind(
                        NettyIo.choose(kind.id(), NettyIo.NETTY),
                        ServerOptions.builder().host("127.0.0.1").port(port).build(), "second", ch -> { }));
                assertInstanceOf(BindException.class, e.getCause(), kind.id() + ": " + e);
                assertTrue(e.getMessage().contains("in use"), e.getMessage());
            }
        } finally {
            taken.close();
        }
    }
}
