package org.salgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.client.inmemory.FakeAgent;
import org.salgate.transport.TransportProvider;
import org.salgate.transport.Transports;
import org.salgate.model.Call;
import org.salgate.model.ErrorCode;
import org.salgate.model.Reading;

/**
 * The client over the real transports on the class path, against the scripted agent: a quick
 * check that nothing in the client assumes the in-memory transport's threading. The real agent
 * is exercised by the conformance suite.
 */
@Timeout(60)
class RealTransportSmokeTest {

    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "xsocket", "socket", "rmi"})
    void requestsStreamsAndFailuresWorkOverTransport(String name) throws Exception {
        TransportProvider transport = Transports.available().get(name);
        assertNotNull(transport, name + " is on the client's test class path");
        try (FakeAgent agent = FakeAgent.start(transport.getClass().getDeclaredConstructor().newInstance())) {
            agent.framesOnStart(100);
            try (SalClient client = SalClient.builder().transport(name).port(agent.port()).connect()) {
                assertEquals(3, client.listSensors().get(10, TimeUnit.SECONDS).size());
                ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                        () -> client.describeSensorXml("NOPE").get(10, TimeUnit.SECONDS));
                assertEquals(ErrorCode.UNKNOWN_SENSOR, assertInstanceOf(SalException.class, e.getCause()).code());

                List<Long> sequences = new CopyOnWriteArrayList<>();
                CompletableFuture<Void> all = new CompletableFuture<>();
                SensorStream stream = client.stream("DUMMY_0", "read", null, 0, (Reading r) -> {
                    sequences.add(r.sequence());
                    if (sequences.size() == 100) {
                        all.complete(null);
                    }
                }).get(10, TimeUnit.SECONDS);
                all.get(10, TimeUnit.SECONDS);
                List<Long> expected = new ArrayList<>();
                for (long i = 0; i < 100; i++) {
                    expected.add(i);
                }
                assertEquals(expected, sequences);
                stream.stop().get(10, TimeUnit.SECONDS);
                agent.expectCall(Call.ListSensors.class);
                agent.expectCall(Call.DescribeSensor.class);
                agent.expectCall(Call.SetupStream.class);
                agent.expectCall(Call.StartStream.class);
                agent.expectCall(Call.StopStream.class);
            }
        }
    }
}
