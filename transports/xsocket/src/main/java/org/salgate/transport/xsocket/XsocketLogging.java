package org.salgate.transport.xsocket;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Keeps xSocket's java.util.logging output to warnings unless the application chose a level. */
final class XsocketLogging {

    // Held so the configured logger is not collected and its level lost.
    private static final Logger XSOCKET = Logger.getLogger("org.xsocket");

    private XsocketLogging() {}

    static void quiet() {
        synchronized (XSOCKET) {
            if (XSOCKET.getLevel() == null) {
                XSOCKET.setLevel(Level.WARNING);
            }
        }
    }
}
