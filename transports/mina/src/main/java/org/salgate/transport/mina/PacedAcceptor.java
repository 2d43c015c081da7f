package org.salgate.transport.mina;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.IoService;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.salgate.transport.AcceptBackoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MINA's socket acceptor, with failed accepts paced by an {@link AcceptBackoff}. MINA's own
 * {@code accept} catches "Too many open files", logs it at ERROR with its stack trace and retries
 * every 50 ms, a line and a trace twenty times a second for as long as descriptors are short. Here
 * a run of failures is logged once and the acceptor thread pauses 5 ms doubling to 1 s; any other
 * failure goes to MINA as before.
 *
 * <p>MINA's session class for an accepted socket is not public; its public constructor is reached
 * by reflection. Should a MINA version change it, accepting falls back to MINA's own method (and
 * its log), which is said once at start.
 */
final class PacedAcceptor extends NioSocketAcceptor {

    private static final Logger LOG = LoggerFactory.getLogger(PacedAcceptor.class);
    private static final String SESSION_CLASS = "org.apache.mina.transport.socket.nio.NioSocketSession";
    private static final Constructor<?> SESSION = sessionConstructor();

    private final AcceptBackoff backoff;

    PacedAcceptor(Executor executor, IoProcessor<NioSession> processor, AcceptBackoff backoff) {
        super(executor, processor);
        this.backoff = backoff;
    }

    private static Constructor<?> sessionConstructor() {
        try {
            Constructor<?> constructor = Class.forName(SESSION_CLASS, false, NioSocketAcceptor.class.getClassLoader())
                    .getConstructor(IoService.class, IoProcessor.class, SocketChannel.class);
            constructor.setAccessible(true);
            return constructor;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("this MINA version has no {}(IoService, IoProcessor, SocketChannel) ({}); a failed accept is"
                    + " logged by MINA itself, once per attempt", SESSION_CLASS, e.toString());
            return null;
        }
    }

    @Override
    protected NioSession accept(IoProcessor<NioSession> processor, ServerSocketChannel handle) throws Exception {
        if (SESSION == null) {
            return super.accept(processor, handle);
        }
        SelectionKey key = handle == null ? null : handle.keyFor(selector);
        if (key == null || !key.isValid() || !key.isAcceptable()) {
            return null;
        }
        SocketChannel channel;
        try {
            channel = handle.accept();
        } catch (IOException e) {
            backoff.failed(e); // pauses this, the acceptor's, thread; the next select offers the socket again
            return null;
        }
        if (channel == null) {
            return null;
        }
        backoff.accepted();
        try {
            return (NioSession) SESSION.newInstance(this, processor, channel);
        } catch (InvocationTargetException e) {
            channel.close();
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
