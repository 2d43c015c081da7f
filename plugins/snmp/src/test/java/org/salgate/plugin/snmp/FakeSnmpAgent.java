package org.salgate.plugin.snmp;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * An in-JVM SNMP v2c agent on loopback, built on snmp4j's command responder: it answers GETs of
 * the values a test sets (noSuchObject for others) when they carry its community, counts the GET
 * requests it answered, and can stop and start again on the same port.
 */
final class FakeSnmpAgent implements AutoCloseable {

    final Map<OID, Variable> values = new ConcurrentHashMap<>();
    private final int port;
    private final String community;
    private volatile int gets;
    private Snmp snmp;

    FakeSnmpAgent(int port, String community) {
        this.port = port;
        this.community = community;
    }

    static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    /** The GET requests answered so far. */
    int gets() {
        return gets;
    }

    synchronized void start() throws IOException {
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv2c());
        snmp = new Snmp(dispatcher, new DefaultUdpTransportMapping(
                new UdpAddress(InetAddress.getLoopbackAddress(), port)));
        snmp.addCommandResponder(this::answer);
        snmp.listen();
    }

    synchronized void stop() throws IOException {
        if (snmp != null) {
            snmp.close();
            snmp = null;
        }
    }

    @Override
    public void close() throws IOException {
        stop();
    }

    private void answer(CommandResponderEvent<?> event) {
        PDU request = event.getPDU();
        if (request == null || request.getType() != PDU.GET
                || !new OctetString(event.getSecurityName()).toString().equals(community)) {
            return;
        }
        event.setProcessed(true);
        PDU response = new PDU();
        response.setType(PDU.RESPONSE);
        response.setRequestID(request.getRequestID());
        for (VariableBinding vb : request.getVariableBindings()) {
            Variable v = values.get(vb.getOid());
            response.add(new VariableBinding(vb.getOid(), v == null ? Null.noSuchObject : v));
        }
        gets++;
        try {
            event.getMessageDispatcher().returnResponsePdu(event.getMessageProcessingModel(), event.getSecurityModel(),
                    event.getSecurityName(), event.getSecurityLevel(), response, event.getMaxSizeResponsePDU(),
                    event.getStateReference(), new StatusInformation());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
