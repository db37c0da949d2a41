package linodegowaits

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRenamePath(t *testing.T) {
	cases := map[string]string{
		"/v4/linode/instances":                  "/v4/compute/instances",
		"/v4/linode/instances/12/disks/3":       "/v4/compute/instances/12/disks/3",
		"/v4/images/linode%2Fdebian12":          "/v4/images/compute%2Fdebian12",
		"/v4/images/private%2F7":                "/v4/images/private%2F7",
		"/v4/linode/kernels/linode%2Flatest-64": "/v4/compute/kernels/compute%2Flatest-64",
		"/v4/account/events":                    "/v4/account/events",
		"/v4/databases/mysql/instances":         "/v4/databases/mysql/instances",
	}
	for in, want := range cases {
		if got := RenamePath(in); got != want {
			t.Errorf("RenamePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRenameJSON(t *testing.T) {
	decode := func(b []byte) any {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return v
	}
	// A request body and an X-Filter of linodego, to the emulator.
	in := `{"image":"linode/debian12","region":"us-ord","type":"g6-nanode-1","linode_id":7,"label":"waits-1"}`
	want := `{"image":"compute/debian12","region":"us-ord","type":"g6-nanode-1","compute_id":7,"label":"waits-1"}`
	if got := RenameJSON([]byte(in), ToEmulator); !reflect.DeepEqual(decode(got), decode([]byte(want))) {
		t.Errorf("request body: %s, want %s", got, want)
	}
	in = `{"+order":"desc","+order_by":"created","action":"linode_create","created":{"+gte":"2024-06-01T10:00:00"},"entity.id":12,"entity.type":"linode"}`
	want = `{"+order":"desc","+order_by":"created","action":"compute_create","created":{"+gte":"2024-06-01T10:00:00"},"entity.id":12,"entity.type":"compute"}`
	if got := RenameJSON([]byte(in), ToEmulator); !reflect.DeepEqual(decode(got), decode([]byte(want))) {
		t.Errorf("X-Filter: %s, want %s", got, want)
	}
	// An answer of the emulator, back to linodego; big ids keep every digit.
	in = `{"data":[{"id":90071992547409930,"action":"compute_boot","entity":{"id":12,"type":"compute","label":"waits-1","url":"/v4/compute/instances/12"},` +
		`"secondary_entity":{"id":5,"type":"compute_config","label":"My Debian 12 Disk Profile","url":"/v4/compute/instances/12/configs/5"},"status":"finished"}],` +
		`"capabilities":["Computes","Vlans"],"errors":[{"reason":"Compute busy."}],"image":"compute/debian12","compute_id":12}`
	want = `{"data":[{"id":90071992547409930,"action":"linode_boot","entity":{"id":12,"type":"linode","label":"waits-1","url":"/v4/linode/instances/12"},` +
		`"secondary_entity":{"id":5,"type":"linode_config","label":"My Debian 12 Disk Profile","url":"/v4/linode/instances/12/configs/5"},"status":"finished"}],` +
		`"capabilities":["Linodes","Vlans"],"errors":[{"reason":"Linode busy."}],"image":"linode/debian12","linode_id":12}`
	got := RenameJSON([]byte(in), ToClient)
	if !reflect.DeepEqual(decode(got), decode([]byte(want))) {
		t.Errorf("answer: %s, want %s", got, want)
	}
	if !json.Valid(got) || !strings.Contains(string(got), "90071992547409930") {
		t.Errorf("answer lost a digit of an id: %s", got)
	}
	// Not JSON: as it is.
	if got := RenameJSON([]byte("linode/x"), ToEmulator); string(got) != "linode/x" {
		t.Errorf("not JSON: %q", got)
	}
}
