package org.salgate.transport.grpc;

import org.salgate.transport.tck.*;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.transport.grpc.proto.SalGrpc;
import org.salgate.wire.proto.WireProto;

/** The sessions' budget over the gRPC transport, its typed calls included. */
class GrpcSessionLimitsTest extends AbstractSessionLimitsTest {

    @Override
    protected TransportProvider provider() {
        return Transports.byName("grpc");
    }

    @Test
    @Timeout(60)
    void aTypedCallPastMaxSessionsFailsResourceExhaustedWhileTheSessionClientKeepsBeingServed() throws Exception {
        Agent agent = agent(o -> o.maxSessions(1));
        SalClient served = client(agent, "served");
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", agent.port()).usePlaintext().build();
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> SalGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(20, TimeUnit.SECONDS).listSensors(WireProto.ListSensors.getDefaultInstance()));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.toString());
            assertTrue(e.getStatus().getDescription().contains("maximum of 1 session;"), e.toString());
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        assertServed(served);
    }
}
