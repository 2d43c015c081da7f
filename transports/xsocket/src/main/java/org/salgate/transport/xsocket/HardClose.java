package org.salgate.transport.xsocket;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xsocket.connection.INonBlockingConnection;
import org.xsocket.connection.NonBlockingConnection;

/**
 * Closes an xSocket connection at once, dropping what xSocket still holds to write. xSocket's own
 * close waits until that is written, which a peer that stopped reading never lets happen: the
 * connection, its descriptor and its buffers would stay for as long as the peer keeps it open.
 * xSocket (2.8.15, its last release) has no public way to do this, so this calls the private
 * method its own error paths use; without it, the connection closes as xSocket closes it.
 */
final class HardClose {

    private static final Logger LOG = LoggerFactory.getLogger(HardClose.class);
    private static final Method FORCE_CLOSE = forceClose();

    private HardClose() {}

    private static Method forceClose() {
        try {
            Method m = NonBlockingConnection.class.getDeclaredMethod("forceClose");
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException | RuntimeException e) {
            LOG.warn("this xSocket cannot close a connection at once ({}); a peer that stops reading keeps its "
                    + "connection open until it reads again or disconnects", e.toString());
            return null;
        }
    }

    /** Closes {@code connection} now if this xSocket allows it; else leaves it closing as xSocket does. */
    static void now(INonBlockingConnection connection) {
        // not by isOpen(): xSocket's close turns it false at once, while it waits to write what it holds
        if (FORCE_CLOSE == null || !(connection instanceof NonBlockingConnection)) {
            return;
        }
        try {
            FORCE_CLOSE.invoke(connection);
        } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
            LOG.debug("closing {}:{} at once failed: {}", connection.getRemoteAddress(), connection.getRemotePort(),
                    e.toString());
        }
    }
}
