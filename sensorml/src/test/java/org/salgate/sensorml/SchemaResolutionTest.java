package org.salgate.sensorml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.w3c.dom.ls.LSInput;

class SchemaResolutionTest {

    private final ClasspathSchemaResolver resolver = new ClasspathSchemaResolver(getClass().getClassLoader());

    @Test
    void relativeLocationsResolveAgainstTheOfficialUrlAndComeFromTheClassPath() throws Exception {
        LSInput input = resolver.resolveResource("http://www.w3.org/2001/XMLSchema", "http://www.opengis.net/gml/3.2",
                null, "../../gml/3.2.1/gmlBase.xsd", "http://schemas.opengis.net/sensorML/2.0/core.xsd");
        assertEquals("http://schemas.opengis.net/gml/3.2.1/gmlBase.xsd", input.getSystemId());
        try (InputStream in = input.getByteStream()) {
            assertNotNull(in);
            assertTrue(in.read() >= 0);
        }
    }

    @Test
    void w3cSchemasComeFromTheClassPath() throws Exception {
        for (String url : new String[] {"http://www.w3.org/1999/xlink.xsd", "http://www.w3.org/2001/xml.xsd"}) {
            try (InputStream in = resolver.resolveResource(null, null, null, url, null).getByteStream()) {
                assertNotNull(in, url);
            }
        }
    }

    @Test
    void unknownLocationIsRefusedInsteadOfFetched() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> resolver.resolveResource(null, null, null, "http://example.com/other.xsd", null));
        assertTrue(e.getMessage().contains("http://example.com/other.xsd"), e.getMessage());
    }

    @Test
    void compiledSchemaIsCompiledOnceAndShared() {
        assertSame(Schemas.sensorMl(), Schemas.sensorMl());
        assertSame(Schemas.cml(), Schemas.cml());
        assertSame(Schemas.pcml(), Schemas.pcml());
    }
}
