package org.salgate.transport.rmi;

import java.io.IOException;
import java.net.InetAddress;
import java.rmi.Remote;

/**
 * Where a callback stub would make the agent connect (see {@link StubEndpoint}): the host its
 * factory names when it is this transport's, else the host in its reference.
 */
final class CallbackAddress {

    private CallbackAddress() {}

    /**
     * The host the agent would dial to reach {@code callback}.
     *
     * @throws IOException if the stub's reference is not one this transport can read
     */
    static String hostOf(Remote callback) throws IOException {
        return StubEndpoint.of(callback).dialledHost();
    }

    /** Whether {@code host} is the address {@code client} (as RMI reports a caller's host) connected from. */
    static boolean sameAddress(String host, String client) {
        try {
            return InetAddress.getByName(host).equals(InetAddress.getByName(client));
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
