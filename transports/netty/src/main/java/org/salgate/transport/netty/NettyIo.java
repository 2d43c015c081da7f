package org.salgate.transport.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The I/O mechanism under the event loops and channels of the Netty-based transports (netty,
 * http): Linux's epoll or io_uring through Netty's native transports, or Java's NIO. It is chosen
 * once per process from the system property {@value #PROPERTY}: {@code auto} (the default) takes
 * the first of {@link #AUTO_ORDER} that loads here; {@code epoll}, {@code io_uring} or {@code nio}
 * asks for that one, and a native one that does not load is an error naming the cause, never a
 * quiet fall back. Event loop groups and the channel classes always come from the same instance,
 * so that they match.
 */
public final class NettyIo {

    /** The system property that chooses the mechanism: {@code auto}, {@code epoll}, {@code io_uring} or {@code nio}. */
    public static final String PROPERTY = "salgate.netty.io";

    /** The mechanisms, by the names {@value #PROPERTY} takes. */
    public enum Kind {
        EPOLL("epoll"), IO_URING("io_uring"), NIO("nio");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /** The name {@value NettyIo#PROPERTY} takes. */
        public String id() {
            return id;
        }
    }

    /**
     * What {@code auto} tries, in order. Epoll first: on this project's Linux x86_64 machines both
     * native transports load, and a one-connection echo round trip was no faster on io_uring than
     * on epoll, which Netty has run in production far longer; io_uring is used where epoll does
     * not load.
     */
    static final List<Kind> AUTO_ORDER = List.of(Kind.EPOLL, Kind.IO_URING, Kind.NIO);

    /** Says why a mechanism does not load here, or null if it does. */
    @FunctionalInterface
    interface Probe {
        Throwable unavailabilityCause(Kind kind);
    }

    /** Asks Netty whether its native transports load here. */
    static final Probe NETTY = kind -> {
        try {
            return switch (kind) {
                case EPOLL -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
                case IO_URING -> IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
                case NIO -> null;
            };
        } catch (LinkageError e) {
            return e;
        }
    };

    private final Kind kind;
    private final String note;

    private NettyIo(Kind kind, String note) {
        this.kind = kind;
        this.note = note;
    }

    /** The mechanism of this process, chosen from {@value #PROPERTY} on first use. */
    public static NettyIo current() {
        return Chosen.get();
    }

    /** What {@link #current()} is, or why it failed, for listings; never throws. */
    public static String describeCurrent() {
        try {
            return current().describe();
        } catch (IllegalStateException e) {
            return "none: " + e.getMessage();
        }
    }

    /** NIO, which loads everywhere, whatever {@value #PROPERTY} says; for code that must not run on native I/O. */
    public static NettyIo nio() {
        return new NettyIo(Kind.NIO, "chosen by the caller");
    }

    /**
     * Chooses from a value of {@value #PROPERTY} (null or blank meaning {@code auto}).
     *
     * @throws IllegalStateException if the value names no mechanism, or one that does not load here, saying why
     */
    static NettyIo choose(String requested, Probe probe) {
        String value = requested == null || requested.isBlank() ? "auto" : requested.trim().toLowerCase(Locale.ROOT);
        if (value.equals("auto")) {
            List<String> skipped = new ArrayList<>();
            for (Kind kind : AUTO_ORDER) {
                Throwable cause = probe.unavailabilityCause(kind);
                if (cause == null) {
                    return new NettyIo(kind, skipped.isEmpty() ? null : String.join("; ", skipped));
                }
                skipped.add(kind.id() + " unavailable: " + why(cause));
            }
            throw new IllegalStateException("no I/O mechanism loads: " + String.join("; ", skipped));
        }
        for (Kind kind : Kind.values()) {
            if (kind.id().equals(value)) {
                Throwable cause = probe.unavailabilityCause(kind);
                if (cause != null) {
                    throw new IllegalStateException(PROPERTY + "=" + value + " asks for Netty's " + kind.id()
                            + " transport, which does not load here: " + why(cause) + "; set " + PROPERTY
                            + "=auto (or leave it unset) to use what loads", cause);
                }
                return new NettyIo(kind, PROPERTY + "=" + value);
            }
        }
        throw new IllegalStateException(PROPERTY + "=" + requested + " is not an I/O mechanism; use one of auto, "
                + Kind.EPOLL.id() + ", " + Kind.IO_URING.id() + ", " + Kind.NIO.id());
    }

    private static String why(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : root.getClass().getName();
        return root == cause ? message : cause.getMessage() + " (" + message + ")";
    }

    public Kind kind() {
        return kind;
    }

    /** Whether this is one of Netty's native (Linux) transports. */
    public boolean isNative() {
        return kind != Kind.NIO;
    }

    /**
     * Names the mechanism and why it was chosen, such as {@code epoll (native)} or
     * {@code nio (epoll unavailable: ...; io_uring unavailable: ...)}.
     */
    public String describe() {
        String what = kind.id() + (isNative() ? " (native" : " (");
        if (note == null) {
            return isNative() ? what + ")" : kind.id();
        }
        return what + (isNative() ? "; " : "") + note + ")";
    }

    /** A new handler factory for an event loop group of this mechanism. */
    IoHandlerFactory handlerFactory() {
        return switch (kind) {
            case EPOLL -> EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
    }

    /** The listening channel class that runs on this mechanism's event loops. */
    public Class<? extends ServerSocketChannel> serverChannel() {
        return switch (kind) {
            case EPOLL -> EpollServerSocketChannel.class;
            case IO_URING -> IoUringServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }

    /** The connection channel class that runs on this mechanism's event loops. */
    public Class<? extends SocketChannel> socketChannel() {
        return switch (kind) {
            case EPOLL -> EpollSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
            case NIO -> NioSocketChannel.class;
        };
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The process's choice, made on first use; a failed choice fails every use alike. */
    private static final class Chosen {
        private static final NettyIo IO;
        private static final IllegalStateException FAILURE;

        static {
            NettyIo io = null;
            IllegalStateException failure = null;
            try {
                io = choose(System.getProperty(PROPERTY), NETTY);
            } catch (IllegalStateException e) {
                failure = e;
            }
            IO = io;
            FAILURE = failure;
        }

        static NettyIo get() {
            if (FAILURE != null) {
                throw new IllegalStateException(FAILURE.getMessage(), FAILURE.getCause());
            }
            return IO;
        }
    }
}
