/** The XML codec. */
package org.salgate.codec.xml;
