package org.salgate.influx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InfluxConfigTest {

    @Test
    void urlMustBeHttpOrHttpsWithAHost() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InfluxConfig.builder("tcp://localhost:8086"));
        assertEquals("InfluxDB URL 'tcp://localhost:8086' is not usable: give http:// or https:// with a host and no"
                + " query, for example http://localhost:8086", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> InfluxConfig.builder("http://h:8086/write?db=x"));
    }

    @Test
    void needsADatabaseOrABucketNotBoth() {
        assertThrows(IllegalArgumentException.class, () -> InfluxConfig.builder("http://h:8086").build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InfluxConfig.builder("http://h:8086").database("d").bucket("o", "b").build());
        assertTrue(e.getMessage().endsWith(", not both"), e.getMessage());
    }

    @Test
    void databaseNameIsEncodedInTheWriteUrl() {
        assertEquals("http://h:8086/base/write?db=my+db%26x&precision=u",
                InfluxConfig.builder("http://h:8086/base").database("my db&x").build().writeUri().toString());
    }

    @Test
    void httpsTrustsTheJvmStoreUnlessToldOtherwise() {
        assertNotNull(InfluxConfig.builder("https://h:8086").database("d").build().tls());
        assertEquals(null, InfluxConfig.builder("http://h:8086").database("d").build().tls());
    }
}
