package org.salgate.mqtt;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import org.eclipse.paho.mqttv5.client.MqttClientException;
import org.eclipse.paho.mqttv5.common.MqttException;

/**
 * What a failed connection says about the broker's URL: a plain {@code tcp://} connection that the
 * broker drops during the MQTT CONNECT, before any CONNACK, is what a TLS listener does; a TLS
 * handshake that the broker ends without a TLS alert is what a plain listener does.
 */
final class BrokerHints {

    private static final String TCP = "tcp://";
    private static final String SSL = "ssl://";

    private BrokerHints() {}

    /** The words to add to a failed connect's line, beginning with "; ", or the empty string. */
    static String forFailedConnect(String serverUri, Exception failure) {
        if (serverUri.startsWith(TCP) && failure instanceof MqttException m
                && m.getReasonCode() == MqttClientException.REASON_CODE_CONNECTION_LOST) {
            return "; the broker dropped the connection during the MQTT CONNECT without a CONNACK, as a TLS listener"
                    + " does: the broker may require TLS, then use " + SSL + serverUri.substring(TCP.length())
                    + " (with --mqtt-ca for a private CA)";
        }
        if (serverUri.startsWith(SSL) && closedDuringHandshake(failure)) {
            return plainBroker(serverUri);
        }
        return "";
    }

    /** Whether the peer closed the connection in the middle of a TLS handshake rather than refusing it with an alert. */
    static boolean closedDuringHandshake(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (c instanceof ConnectException || c instanceof NoRouteToHostException) {
                return false; // nothing listens there, or it cannot be reached: no handshake began
            }
            if (c instanceof EOFException || c instanceof SocketException || m.contains("Remote host terminated")
                    || m.contains("Connection reset")) {
                return true;
            }
        }
        return false;
    }

    /** The words to add when a TLS handshake was cut short, beginning with "; ". */
    static String plainBroker(String serverUri) {
        String plain = serverUri.startsWith(SSL) ? TCP + serverUri.substring(SSL.length()) : "a tcp:// URL";
        return "; the broker closed the connection during the TLS handshake, as a listener that does not speak TLS"
                + " does: if it does not, use " + plain;
    }
}
