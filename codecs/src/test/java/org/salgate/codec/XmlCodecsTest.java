package org.salgate.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Codecs;
import org.salgate.wire.Message;
import org.salgate.wire.WireSamples;

class XmlCodecsTest {

    private static final List<String> XML = List.of("xml", "xml-stax", "xml-dom");

    @Test
    void theXmlParsersReadOneAnothersDocuments() throws CodecException {
        for (String writer : XML) {
            for (String reader : XML) {
                for (Message m : WireSamples.everyMessage()) {
                    assertEquals(m, Codecs.byName(reader).decode(Codecs.byName(writer).encode(m)),
                            reader + " reading " + writer + " changed " + m);
                }
            }
        }
    }

    @Test
    void externalEntitiesAreNeverResolved() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>"
                + "<m><streamEnded><streamId>1</streamId><reason>&x;</reason></streamEnded></m>";
        for (String name : XML) {
            Codec codec = Codecs.byName(name);
            assertThrows(CodecException.class, () -> codec.decode(xxe.getBytes(StandardCharsets.UTF_8)),
                    name + " accepted a document with an external entity");
        }
    }
}
