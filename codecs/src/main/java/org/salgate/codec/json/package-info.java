/** The JSON codec. */
package org.salgate.codec.json;
