package org.salgate.plugin.onewire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;

class OnewireProtocolTest {

    private static final List<ChannelConfig> CHANNELS = List.of(
            Channels.read("temperature", "path", "/28.000028D70000/temperature"),
            Channels.read("humidity", "path", "/26.F2FBE3467CC2/humidity"),
            Channels.read("rain", "path", "/1D.54F81BE8E78D/counter.A", "uncached", "true"));

    private static OnewireProtocol protocol(FakeOwserver fake, Map<String, String> parameters) {
        ProtocolConfig config = new ProtocolConfig("bus", "onewire", "tcp:127.0.0.1:" + fake.port(), parameters,
                List.of(), List.of(), CHANNELS);
        OnewireSettings settings = OnewireSettings.of(config);
        return new OnewireProtocol(config, settings, config.endpoint(),
                () -> new Owserver("127.0.0.1", fake.port(), settings.timeoutMs(), settings.persistent()));
    }

    @Test
    void aProbeGoneFromTheBusFailsItsOwChannelsNamingItAndTheOthersReadUntilItIsBack() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             OnewireProtocol p = protocol(fake, Map.of())) {
            p.connect();
            Map<String, String> gone = fake.unplug("/26.F2FBE3467CC2");
            List<ChannelValue> values = p.read(Channels.reads(CHANNELS));
            assertEquals(Value.of(21.5), values.get(0).value());
            assertFalse(values.get(1).ok());
            assertTrue(values.get(1).error().contains("1-Wire device 26.F2FBE3467CC2 is not on owserver"),
                    values.get(1).error());
            assertEquals(Value.of(1234L), values.get(2).value());
            fake.values.putAll(gone);
            assertEquals(Value.of(45.25), p.read(Channels.reads(CHANNELS)).get(1).value());
        }
    }

    @Test
    void aReplyThatIsNotTheChannelsKindFailsThatChannelAloneSayingHowToReadItAsText() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             OnewireProtocol p = protocol(fake, Map.of())) {
            p.connect();
            fake.values.put("/28.000028D70000/temperature", "  85 C");
            List<ChannelValue> values = p.read(Channels.reads(CHANNELS));
            assertFalse(values.get(0).ok());
            assertEquals("1-Wire channel temperature (/28.000028D70000/temperature): '85 C' is not a decimal number;"
                    + " give the channel attribute type=\"text\" to read it as text", values.get(0).error());
            assertEquals(Value.of(45.25), values.get(1).value());
            assertEquals(Value.of(1234L), values.get(2).value());
        }
    }

    @Test
    void anUncachedChannelOrProtocolReadsUnderUncached() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS)) {
            try (OnewireProtocol p = protocol(fake, Map.of())) {
                p.connect();
                p.read(Channels.reads(CHANNELS));
                assertEquals(1, fake.uncachedReads.get());
            }
            try (OnewireProtocol p = protocol(fake, Map.of("uncached", "true", "persistent", "false"))) {
                p.connect();
                p.read(Channels.reads(CHANNELS));
                assertEquals(4, fake.uncachedReads.get());
            }
        }
    }

    @Test
    void owserverDownIsALostConnectionAndTheNextConnectFindsItBack() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             OnewireProtocol p = protocol(fake, Map.of())) {
            p.connect();
            assertEquals(List.of("1D /1D.54F81BE8E78D", "26 /26.F2FBE3467CC2", "28 /28.000028D70000"), p.devices());
            fake.stop();
            SensorDisconnectedException e = assertThrows(SensorDisconnectedException.class,
                    () -> p.read(Channels.reads(CHANNELS)));
            assertTrue(e.getMessage().contains("owserver tcp:127.0.0.1:" + fake.port()), e.getMessage());
            assertThrows(SensorDisconnectedException.class, p::connect);
            fake.start();
            p.connect();
            assertEquals(Value.of(21.5), p.read(Channels.reads(CHANNELS)).get(0).value());
        }
    }

    /** The bus, with a DS2406 switch (family 12) that discovery does not know. */
    private static Map<String, String> busWithASwitch() {
        Map<String, String> bus = new java.util.HashMap<>(OnewirePluginConformanceTest.BUS);
        bus.put("/12.0000000000AA/PIO.A", "1");
        return bus;
    }

    @Test
    void discoveryGivesEachDeviceOfAKnownFamilyAChannelNamedByItsIdWithItsUnitAndPath() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(busWithASwitch());
             OnewireProtocol p = protocol(fake, Map.of("discover", "/"))) {
            p.connect();
            List<ChannelConfig> found = p.discover();
            assertEquals(List.of("1D-54F81BE8E78D", "26-F2FBE3467CC2", "28-000028D70000"),
                    found.stream().map(ChannelConfig::name).toList());
            assertEquals(List.of("1", "%", "Cel"), found.stream().map(ChannelConfig::unit).toList());
            assertEquals(List.of("/1D.54F81BE8E78D/counter.A", "/26.F2FBE3467CC2/humidity",
                    "/28.000028D70000/temperature"), found.stream().map(c -> c.attributes().get("path")).toList());
            assertTrue(found.get(2).description().contains("DS18B20"), found.get(2).description());
            // read as configured channels are, each in its property's kind
            List<ChannelValue> values = p.read(Channels.reads(found));
            assertEquals(List.of(Value.of(1234L), Value.of(45.25), Value.of(21.5)),
                    values.stream().map(ChannelValue::value).toList());
        }
    }

    @Test
    void aListedEntryThatIsNotADeviceOfAKnownFamilyOrNotAPathIsLeftOut() {
        assertTrue(OnewireFamily.channel("/bus.0").isEmpty());
        assertTrue(OnewireFamily.channel("/12.0000000000AA").isEmpty(), "a switch");
        assertTrue(OnewireFamily.channel("/bus 0/28.000028D70000").isEmpty(), "a space");
        assertTrue(OnewireFamily.channel("28.000028D70000").isEmpty(), "no leading /");
        ChannelConfig ds1825 = OnewireFamily.channel("/bus.0/3b.000028D70000/").orElseThrow();
        assertEquals("/bus.0/3b.000028D70000/temperature", ds1825.attributes().get("path"));
        assertEquals("3b-000028D70000", ds1825.name());
        assertEquals("Cel", ds1825.unit());
    }

    @Test
    void withoutTheDiscoverParameterNothingIsDiscovered() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             OnewireProtocol p = protocol(fake, Map.of())) {
            p.connect();
            assertEquals(List.of(), p.discover());
        }
    }

    @Test
    void aDiscoveredDeviceGoneFromTheBusIsNotListedAgainAndAReadOfItFailsNamingIt() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             OnewireProtocol p = protocol(fake, Map.of("discover", "/", "uncached", "true"))) {
            p.connect();
            List<ChannelConfig> found = p.discover();
            ChannelConfig humidity = found.get(1);
            assertEquals("26-F2FBE3467CC2", humidity.name());
            Map<String, String> gone = fake.unplug("/26.F2FBE3467CC2");
            assertEquals(List.of("1D-54F81BE8E78D", "28-000028D70000"),
                    p.discover().stream().map(ChannelConfig::name).toList());
            ChannelValue read = p.read(Channels.reads(List.of(humidity))).get(0);
            assertFalse(read.ok());
            assertTrue(read.error().contains("1-Wire device 26.F2FBE3467CC2 is not on owserver tcp:127.0.0.1:"
                    + fake.port() + "'s bus now"), read.error());
            fake.values.putAll(gone);
            assertEquals(found, p.discover());
            int uncached = fake.uncachedReads.get();
            assertEquals(Value.of(45.25), p.read(Channels.reads(List.of(humidity))).get(0).value());
            assertEquals(uncached + 1, fake.uncachedReads.get(), "the protocol's uncached applies to discovered channels");
        }
    }

    @Test
    void discoveryUnderABusListsItsDevicesAndADirectoryOwserverLacksIsAFailureNamingIt() throws Exception {
        Map<String, String> bus = Map.of("/bus.0/28.000028D70000/temperature", "     21.5");
        try (FakeOwserver fake = new FakeOwserver(bus)) {
            try (OnewireProtocol p = protocol(fake, Map.of("discover", "/bus.0"))) {
                p.connect();
                List<ChannelConfig> found = p.discover();
                assertEquals(List.of("/bus.0/28.000028D70000/temperature"),
                        found.stream().map(c -> c.attributes().get("path")).toList());
                assertEquals(Value.of(21.5), p.read(Channels.reads(found)).get(0).value());
            }
            try (OnewireProtocol p = protocol(fake, Map.of("discover", "/bus.7"))) {
                p.connect();
                PluginException e = assertThrows(PluginException.class, p::discover);
                assertTrue(e.getMessage().contains("cannot list 1-Wire directory /bus.7 (parameter discover)")
                        && e.getMessage().contains("ENOENT"), e.getMessage());
            }
        }
    }

    @Test
    void discoveryWhileOwserverIsDownIsALostConnection() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             OnewireProtocol p = protocol(fake, Map.of("discover", "/", "persistent", "false"))) {
            p.connect();
            fake.stop();
            assertThrows(SensorDisconnectedException.class, p::discover);
            assertThrows(SensorDisconnectedException.class, p::discover);
        }
    }

    @Test
    void aDiscoverParameterThatIsNotAnOwserverDirectoryIsRefusedNamingIt() {
        for (String bad : new String[] {"bus.0", "/bus 0", "/../etc", "/uncached", ""}) {
            ProtocolConfig config = new ProtocolConfig("bus", "onewire", "tcp:127.0.0.1:4304", Map.of("discover", bad),
                    List.of(), List.of(), CHANNELS);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnewireSettings.of(config),
                    bad);
            assertTrue(e.getMessage().contains("parameter discover") && e.getMessage().contains("/bus.0"),
                    e.getMessage());
        }
        assertEquals("/bus.0", OnewireSettings.of(new ProtocolConfig("bus", "onewire", "tcp:127.0.0.1:4304",
                Map.of("discover", " /bus.0 "), List.of(), List.of(), CHANNELS)).discover());
    }

    @Test
    void aPathWrittenWithUncachedIsRefusedPointingToTheAttribute() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnewireChannel.of(
                Channels.read("t", "path", "/uncached/28.000028D70000/temperature"), false));
        assertTrue(e.getMessage().contains("uncached=\"true\""), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OnewireChannel.of(
                Channels.read("t", "path", "/28.000028D70000/../temperature"), false));
        assertThrows(IllegalArgumentException.class, () -> OnewireChannel.of(Channels.read("t"), false));
    }
}
