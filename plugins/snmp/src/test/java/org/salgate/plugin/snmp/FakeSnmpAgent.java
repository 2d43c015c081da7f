package org.salgate.plugin.snmp;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
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
 * the values a test sets (noSuchObject for others), and GETNEXT and GETBULK over them in OID order
 * (endOfMibView past the last), when they carry its community; counts the GET and GETBULK requests
 * it answered, and can stop and start again on the same port.
 */
final class FakeSnmpAgent implements AutoCloseable {

    final NavigableMap<OID, Variable> values = new ConcurrentSkipListMap<>();
    private final int port;
    private final String community;
    private volatile int gets;
    private volatile int bulks;
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

    /** The GETBULK requests answered so far. */
    int bulks() {
        return bulks;
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
        if (request == null || !new OctetString(event.getSecurityName()).toString().equals(community)) {
            return;
        }
        PDU response = new PDU();
        response.setType(PDU.RESPONSE);
        response.setRequestID(request.getRequestID());
        List<? extends VariableBinding> asked = request.getVariableBindings();
        switch (request.getType()) {
            case PDU.GET -> {
                for (VariableBinding vb : asked) {
                    Variable v = values.get(vb.getOid());
                    response.add(new VariableBinding(vb.getOid(), v == null ? Null.noSuchObject : v));
                }
                gets++;
            }
            case PDU.GETNEXT -> asked.forEach(vb -> response.add(next(vb.getOid())));
            case PDU.GETBULK -> {
                int fixed = Math.min(Math.max(request.getNonRepeaters(), 0), asked.size());
                for (int i = 0; i < fixed; i++) {
                    response.add(next(asked.get(i).getOid()));
                }
                List<OID> cursors = new ArrayList<>();
                asked.subList(fixed, asked.size()).forEach(vb -> cursors.add(vb.getOid()));
                for (int r = 0; r < request.getMaxRepetitions() && !cursors.isEmpty(); r++) {
                    for (int i = 0; i < cursors.size(); i++) {
                        VariableBinding next = next(cursors.get(i));
                        response.add(next);
                        cursors.set(i, next.getOid());
                    }
                }
                bulks++;
            }
            default -> {
                return;
            }
        }
        event.setProcessed(true);
        try {
            event.getMessageDispatcher().returnResponsePdu(event.getMessageProcessingModel(), event.getSecurityModel(),
                    event.getSecurityName(), event.getSecurityLevel(), response, event.getMaxSizeResponsePDU(),
                    event.getStateReference(), new StatusInformation());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private VariableBinding next(OID after) {
        Map.Entry<OID, Variable> e = values.higherEntry(after);
        return e == null ? new VariableBinding(after, Null.endOfMibView) : new VariableBinding(e.getKey(), e.getValue());
    }
}
